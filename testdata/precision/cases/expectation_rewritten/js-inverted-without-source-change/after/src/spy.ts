export function mockClass(impl: new () => object) {
  return function Mock(this: object) {
    Object.assign(this, new impl())
  }
}
