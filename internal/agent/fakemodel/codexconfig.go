package fakemodel

import "fmt"

// CodexConfig is a CODEX_HOME config.toml that points Codex at a fake
// Responses API at url (a Server's URL) for model gpt-5.5 (a slug that
// offers apply_patch), reading the key from FAKEMODEL_API_KEY, with
// everything non-essential switched off: update checks, analytics,
// feedback, telemetry, and plugins (which would clone their catalogue from
// GitHub).
func CodexConfig(url string) string {
	return fmt.Sprintf(`model = "gpt-5.5"
model_provider = "fakemodel"
check_for_update_on_startup = false

[model_providers.fakemodel]
name = "fakemodel"
base_url = %q
wire_api = "responses"
env_key = "FAKEMODEL_API_KEY"

[features]
plugins = false

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"
metrics_exporter = "none"
trace_exporter = "none"
`, url+"/v1")
}
