package cli

// App is a command-line application.
type App struct {
	Name string
}

// NewCommand returns an application named name.
func NewCommand(name string) *App {
	return &App{Name: name}
}

// Run runs the application.
func (a *App) Run(args []string) string {
	return a.Name + ":" + args[0]
}
