export const user = () => ({ name: "bob", age: 3 })
