package shell

import "github.com/eukhe/eukhe/gate"

// cdArgs is a cd argv as the interpreter's cd takes it: one operand at
// most, no option (it answers `cd -P ..` with a usage error). Bash's -L,
// -P, -e and -@, grouped or not, and "--" are read here: -P moves to the
// physical directory, whose links real resolves as the kernel would (the
// gate's Resolve); -L is the interpreter's own way. Any other argv comes
// back as it is, for the interpreter to answer.
func cdArgs(args []string, real func(string) string) []string {
	physical := false
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if !gate.CdOption(a) {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'P':
				physical = true
			case 'L':
				physical = false
			}
		}
	}
	ops := args[i:]
	switch {
	case len(ops) > 1:
		return args
	case len(ops) == 0:
		return []string{"cd"}
	case physical && ops[0] != "-":
		return []string{"cd", real(ops[0])}
	}
	return []string{"cd", ops[0]}
}
