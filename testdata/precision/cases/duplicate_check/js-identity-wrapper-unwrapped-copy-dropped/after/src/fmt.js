export function shout(s) {
  if (typeof s !== "string") {
    throw new TypeError("shout expects a string");
  }
  return s.toUpperCase() + "!";
}
