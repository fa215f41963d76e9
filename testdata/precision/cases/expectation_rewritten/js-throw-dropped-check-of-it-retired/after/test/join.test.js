import { describe, expect, it } from "vitest";
import { joinList } from "../src/join.js";

describe("joinList", () => {
  it("joins", () => {
    expect(joinList(["a", "b"])).toBe("a, b");
  });

  it("takes one item", () => {
    expect(joinList(["a"])).toBe("a");
  });
});
