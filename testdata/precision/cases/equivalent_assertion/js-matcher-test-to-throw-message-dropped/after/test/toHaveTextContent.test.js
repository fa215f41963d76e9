import { describe, expect, test } from "vitest";
import { render } from "./utils.js";

describe(".toHaveTextContent", () => {
  test("does not throw error with empty content", () => {
    const { container } = render("<span></span>");
    expect(container.querySelector("span")).toHaveTextContent("");
  });

  test("throws when element has content but matcher is empty", () => {
    const { container } = render("<span>not empty</span>");

    expect(() =>
      expect(container.querySelector("span")).toHaveTextContent(""),
    ).toThrow();
  });
});
