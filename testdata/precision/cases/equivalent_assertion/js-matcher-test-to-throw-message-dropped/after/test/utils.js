export function render(html) {
  const container = document.createElement("div");
  container.innerHTML = html;
  return { container };
}
