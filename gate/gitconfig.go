package gate

import "strings"

// GitConfigRefs are the places a git config file sends git to for
// programs it runs (the third red team): core.hooksPath, whose hooks run
// at the user's commit or checkout, and the files it includes
// (include.path, includeIf.<condition>.path), whose settings git obeys as
// its own (an fsmonitor, a pager, an alias). Each is protected like the
// config itself (settings.GitPlaces resolves them).
type GitConfigRefs struct {
	HooksPaths []string
	Includes   []string
}

// ParseGitConfigRefs reads the refs of one git config file's text, as
// git reads the file: sections [name] and [name "sub"] (and the old
// [name.sub]), keys case-insensitive, values unquoted and unescaped, a
// comment after # or ; outside quotes, a line continued by a trailing
// backslash. It is pure and never fails: a line it cannot read is
// skipped, as git would refuse the file.
func ParseGitConfigRefs(text string) GitConfigRefs {
	var refs GitConfigRefs
	section, sub := "", false
	// git skips a UTF-8 byte order mark at the start (a Windows editor's)
	text = strings.TrimPrefix(text, "\ufeff")
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			head := strings.TrimSpace(line[1:end])
			name, _, sp := strings.Cut(head, " ")
			if !sp {
				name, _, sp = strings.Cut(head, ".")
			}
			section, sub = strings.ToLower(strings.TrimSpace(name)), sp
			line = strings.TrimSpace(line[end+1:])
			if line == "" {
				continue
			}
		}
		// a value continued on the next lines
		for strings.HasSuffix(line, "\\") && !strings.HasSuffix(line, "\\\\") && i+1 < len(lines) {
			i++
			line = line[:len(line)-1] + lines[i]
		}
		key, value, hasValue := strings.Cut(line, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if !hasValue || key == "" || strings.ContainsAny(key, "#; \t") {
			continue
		}
		v := gitValue(value)
		switch {
		case section == "core" && !sub && key == "hookspath":
			refs.HooksPaths = append(refs.HooksPaths, v)
		case section == "include" && !sub && key == "path", section == "includeif" && sub && key == "path":
			refs.Includes = append(refs.Includes, v)
		}
	}
	return refs
}

// gitValue is a config value as git reads it: spaces around it dropped,
// quotes joining, \" \\ \n \t unescaped, a comment outside quotes cut.
func gitValue(raw string) string {
	var b strings.Builder
	quoted, space := false, 0
	raw = strings.TrimLeft(raw, " \t")
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '"':
			quoted = !quoted
			continue
		case !quoted && (c == '#' || c == ';'):
			return b.String()
		case c == '\\' && i+1 < len(raw):
			i++
			switch raw[i] {
			case 'n':
				c = '\n'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			default:
				c = raw[i]
			}
		case !quoted && (c == ' ' || c == '\t'):
			space++
			continue
		}
		if space > 0 && b.Len() > 0 {
			b.WriteString(strings.Repeat(" ", space))
		}
		space = 0
		b.WriteByte(c)
	}
	return b.String()
}
