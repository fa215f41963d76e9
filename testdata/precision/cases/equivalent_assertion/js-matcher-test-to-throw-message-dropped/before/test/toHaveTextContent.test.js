import { describe, expect, test } from "vitest";
import { render } from "./utils.js";

describe(".toHaveTextContent", () => {
  test("does not throw error with empty content", () => {
    const { container } = render("<span></span>");
    expect(container.querySelector("span")).toHaveTextContent("");
  });

  test("when matching with empty string and element with content, suggest using toBeEmptyDOMElement instead", () => {
    const { container } = render("<span>not empty</span>");

    expect(() =>
      expect(container.querySelector("span")).toHaveTextContent(""),
    ).toThrow(/toBeEmptyDOMElement\(\)/);
  });
});
