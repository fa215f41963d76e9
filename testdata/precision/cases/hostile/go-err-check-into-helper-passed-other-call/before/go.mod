module example.com/cmd

go 1.21
