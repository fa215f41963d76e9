# Same project as plain.cmd; --pretty true keeps ANSI colours, code frames and the summary
# ("Found 4 errors in 2 files.") when the output is not a terminal.
npx tsc --noEmit --pretty true > pretty.txt
