package gate

import (
	"os"
	"strconv"
	"testing"
)

// What the user is shown is what runs (issue 12, class 11): a parameter
// whose value the gate knows ($$, $PPID: this process's, as the
// interpreter gives them) is shown with that value; one only the run
// knows ($?, $!, $-, $RANDOM) is shown unquoted as written — never as a
// quoted literal ('$$'), never dropped.
func TestShownStepKeepsRuntimeParameters(t *testing.T) {
	w := newWorld(t)
	pid, ppid := strconv.Itoa(os.Getpid()), strconv.Itoa(os.Getppid())
	for script, want := range map[string]string{
		"false; echo $? $$ $RANDOM x":     "echo $? " + pid + " $RANDOM x",
		"echo $$ $PPID $RANDOM":           "echo " + pid + " " + ppid + " $RANDOM",
		`echo "a b$RANDOM" ${RANDOM}x $!`: "echo 'a b'$RANDOM ${RANDOM}x $!",
		"echo $SRANDOM$-":                 "echo $SRANDOM$-",
		"echo ${RANDOM:0:1} $HOME":        "echo ${RANDOM:0:1} $HOME", // cannot be expanded: as written
		"echo $# $0 $1 $@":                "echo 0 gosh",
		"cat < ${RANDOM:1}":               "cat < ${RANDOM:1}",
		"X=$RANDOM$? env":                 "X=$RANDOM$? env",
	} {
		sc, err := w.shell(w.root).Classify(script)
		if err != nil {
			t.Fatal(err)
		}
		if got := sc.Steps[len(sc.Steps)-1].Text; got != want {
			t.Errorf("%q is shown as %q, want %q", script, got, want)
		}
	}
}
