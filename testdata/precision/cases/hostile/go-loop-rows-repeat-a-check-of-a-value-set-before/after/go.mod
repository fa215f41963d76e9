module example.com/case

go 1.22
