export function joinList(list, sep = ", ") {
  const items = Array.isArray(list) ? list : [list];
  return items.join(sep);
}
