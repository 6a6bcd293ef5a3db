package settings

import (
	"strings"
	"testing"
	"time"
)

func TestShellBudgetSetting(t *testing.T) {
	f, events := Parse("settings.json", []byte(`{"shell.blockingBudgetSeconds": 90}`), UserScope)
	if len(events) != 0 || f == nil || f.ShellBudget == nil || *f.ShellBudget != 90*time.Second {
		t.Fatalf("parse: %+v %v", f, events)
	}
	if got := Merge(f).ShellBudget; got != 90*time.Second {
		t.Fatalf("merged budget %v", got)
	}
	if got := Merge(nil).ShellBudget; got != 30*time.Second {
		t.Fatalf("default budget %v", got)
	}
	_, events = Parse("settings.json", []byte(`{"shell.blockingBudgetSeconds": 0}`), UserScope)
	if len(events) == 0 || !strings.Contains(events[0].String(), "from 1 to 3600") {
		t.Fatalf("a budget of 0: %v", events)
	}
}
