module example.com/web

go 1.21
