# Recorded with TypeScript 5.9.3 (npm typescript@5), node v20.20.2, in a sample project with
# tsconfig.json {strict, target ES2022, module NodeNext, noEmit, include ["src"]}: src/sum.ts has
# two type errors (TS2322, TS2554), src/util.ts two TS2322 (one with related information).
npx tsc --noEmit --pretty false > plain.txt
