export function mockClass(impl: new () => object) {
  return function Mock(this: object) {
    Object.setPrototypeOf(this, impl.prototype)
    Object.assign(this, new impl())
  }
}
