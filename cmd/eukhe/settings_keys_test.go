package main

import (
	"os"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate/settings"
)

// Every key the settings parser knows is shown by eukhe settings and
// documented in SETTINGS.md, so a new key cannot be left out of either.
func TestEverySettingsKeyIsShownAndDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../SETTINGS.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range settings.KeyNames() {
		if _, ok := settingValues[k]; !ok {
			t.Errorf("eukhe settings does not show %s", k)
		}
		if !strings.Contains(string(doc), "| `"+k+"` |") {
			t.Errorf("SETTINGS.md has no row for %s", k)
		}
	}
}
