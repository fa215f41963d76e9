# Recorded with TypeScript 5.9.3 in a directory whose tsconfig.json is {"include":["nothing"]}:
# a global diagnostic (TS18003) with no file position.
tsc --noEmit --pretty false > no-inputs-plain.txt
tsc --noEmit --pretty true > no-inputs-pretty.txt
