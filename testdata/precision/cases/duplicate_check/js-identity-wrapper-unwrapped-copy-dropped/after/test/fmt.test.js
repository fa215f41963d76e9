import { expect, it } from "vitest";
import { shout } from "../src/fmt.js";

it("shouts", () => {
  expect(shout("hi")).toBe("HI!");
  expect(() => shout(1)).toThrow(TypeError);
});
