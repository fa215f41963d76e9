module ex.com/tool

go 1.22
