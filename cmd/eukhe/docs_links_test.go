package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// The user's pages link to each other and to files of the repository;
// every relative link must lead somewhere, and a link with #anchor to a
// heading that exists (GitHub's anchor for it).

var (
	mdLink     = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	mdFence    = regexp.MustCompile("(?ms)^ *```.*?^ *```")
	mdCodeSpan = regexp.MustCompile("`[^`\n]*`")
	mdHeading  = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *#* *$`)
	urlScheme  = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// docsPages are the pages checked, from the repository's root.
func docsPages(t *testing.T, repo string) []string {
	t.Helper()
	pages := []string{"README.md", "CHANGELOG.md", "SETTINGS.md", "CONTRIBUTING.md", "bench/README.md", "protocol/README.md"}
	for _, pattern := range []string{"guide/*.md", "editors/*/README.md"} {
		m, err := filepath.Glob(filepath.Join(repo, filepath.FromSlash(pattern)))
		if err != nil || len(m) == 0 {
			t.Fatalf("no pages match %s: %v", pattern, err)
		}
		for _, p := range m {
			rel, _ := filepath.Rel(repo, p)
			pages = append(pages, filepath.ToSlash(rel))
		}
	}
	return pages
}

func TestDocsLinksResolve(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, p := range docsPages(t, repo) {
		n, broken := brokenLinks(repo, p)
		checked += n
		for _, b := range broken {
			t.Errorf("%s: %s", p, b)
		}
	}
	if checked == 0 {
		t.Errorf("no relative links found in the pages: the link finder is broken")
	}
}

// The check itself finds a missing file, a missing anchor, and passes a
// good link, a link in code and a URL.
func TestDocsLinksResolve_finds_broken_links(t *testing.T) {
	repo := t.TempDir()
	os.MkdirAll(filepath.Join(repo, "guide"), 0o755)
	os.WriteFile(filepath.Join(repo, "guide", "a.md"), []byte("# A page\n\n## Who answers, and how\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "README.md"), []byte("# Top\n\n"+
		"[ok](guide/a.md) [ok](guide/a.md#who-answers-and-how) [ok](#top) [url](https://example.com/x)\n"+
		"`[code](nowhere.md)`\n```\n[fenced](nowhere.md)\n```\n"+
		"[gone](guide/b.md) [bad anchor](guide/a.md#nobody) [bad local](#bottom)\n"), 0o644)
	n, broken := brokenLinks(repo, "README.md")
	if n != 6 || len(broken) != 3 {
		t.Errorf("checked %d links, broken %q; want 6 checked, 3 broken", n, broken)
	}
}

// brokenLinks checks the relative links of the page rel (from repo):
// how many it checked, and each that leads nowhere.
func brokenLinks(repo, rel string) (int, []string) {
	b, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(rel)))
	if err != nil {
		return 0, []string{err.Error()}
	}
	text := mdCodeSpan.ReplaceAllString(mdFence.ReplaceAllString(string(b), ""), "")
	var broken []string
	n := 0
	for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
		target := m[1]
		if urlScheme.MatchString(target) {
			continue
		}
		n++
		file, anchor, _ := strings.Cut(target, "#")
		path := filepath.Join(repo, filepath.FromSlash(rel))
		if file != "" {
			path = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
		}
		if _, err := os.Stat(path); err != nil {
			broken = append(broken, fmt.Sprintf("%s leads to no file", target))
			continue
		}
		if anchor == "" || !strings.HasSuffix(path, ".md") {
			continue
		}
		if !hasAnchor(path, anchor) {
			broken = append(broken, fmt.Sprintf("%s: no heading has the anchor #%s", target, anchor))
		}
	}
	return n, broken
}

// hasAnchor says whether a heading of the markdown file has GitHub's
// anchor: lower case, punctuation dropped, spaces as hyphens, a repeat
// suffixed -1, -2, ….
func hasAnchor(path, anchor string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	seen := map[string]int{}
	text := mdFence.ReplaceAllString(string(b), "")
	for _, h := range mdHeading.FindAllStringSubmatch(text, -1) {
		slug := slugOf(h[1])
		if k := seen[slug]; k > 0 {
			seen[slug]++
			slug = fmt.Sprintf("%s-%d", slug, k)
		} else {
			seen[slug] = 1
		}
		if slug == anchor {
			return true
		}
	}
	return false
}

func slugOf(heading string) string {
	var s strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			s.WriteRune(r)
		case r == ' ':
			s.WriteRune('-')
		}
	}
	return s.String()
}
