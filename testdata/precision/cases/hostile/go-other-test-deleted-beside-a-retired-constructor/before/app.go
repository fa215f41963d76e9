package cli

// App is a command-line application.
type App struct {
	Name string
}

// Deprecated: declare an App literal, or use NewCommand.
func NewApp() *App {
	return &App{Name: "app"}
}

// Run runs the application.
func (a *App) Run(args []string) string {
	return a.Name + ":" + args[0]
}
