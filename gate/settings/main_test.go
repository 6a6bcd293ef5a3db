package settings

import (
	"os"
	"testing"

	"github.com/eukhe/eukhe/internal/sigdefault"
	"github.com/eukhe/eukhe/internal/testkit"
)

// TestMain takes the signals the test process was started ignoring (under
// nohup) before any test counts its goroutines: the first ask would
// otherwise start os/signal's goroutine inside a test's count. Not in
// the process TestAskingAShellUnderNohupHangsItsToolUp starts: there the
// ask itself must.
func TestMain(m *testing.M) {
	if !testkit.StartedIgnoringHangup() {
		sigdefault.ForChildren()
	}
	os.Exit(m.Run())
}
