module example.com/ecs

go 1.22
