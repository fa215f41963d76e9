package calc

import "testing"

func TestInit(t *testing.T) {
	tests := []struct {
		name      string
		arg       string
		expectErr bool
	}{
		{name: "creates a project", arg: "proj", expectErr: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Init(tt.arg)
			if !tt.expectErr && err != nil {
				t.Fatalf("did not expect an error, got %s", err)
			}
			if tt.expectErr {
				if err == nil {
					t.Fatal("expected an error but got none")
				}
				return
			}
			if got != "ok:"+tt.arg {
				t.Fatalf("got %q", got)
			}
		})
	}
}
