export function joinList(list, sep = ", ") {
  if (!Array.isArray(list)) {
    throw new TypeError("joinList expects an array");
  }
  return list.join(sep);
}
