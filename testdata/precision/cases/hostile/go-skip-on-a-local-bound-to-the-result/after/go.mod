module ex.com/m

go 1.22
