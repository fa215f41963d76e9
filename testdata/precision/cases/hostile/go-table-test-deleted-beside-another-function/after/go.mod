module ex.com/ecs

go 1.22
