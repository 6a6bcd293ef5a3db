// How a field the agent or the server wrote is shown in a dialog, as the
// server shows it (gate.Visible), so nothing in it can pose as the
// dialog's own text: a fake line, a name reversed by a bidi override, a
// character that does not show. Pure: no vscode import.

// hidden matches a character that does not print as Go's unicode.IsPrint
// has it: anything but a letter, mark, number, punctuation, symbol or the
// ASCII space. Controls, DEL and C1, other spaces, bidi marks, embeddings,
// overrides and isolates, zero-width characters, line and paragraph
// separators, private use, unassigned code points, tags and lone
// surrogates are hidden; so is the replacement character, which
// syntax.Quote escapes (it stands for a byte that is not UTF-8), and so
// are the characters that print as nothing though they are letters,
// marks or symbols (gate.blank): the Hangul fillers, the braille blank,
// the combining grapheme joiner, Khmer's inherent vowels, the variation
// selectors.
const unprintable = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

// blank is a code point that prints as nothing (gate.blank), or the
// replacement character.
function blank(cp: number): boolean {
	return cp === 0xfffd || cp === 0x034f || cp === 0x115f || cp === 0x1160 || cp === 0x17b4 || cp === 0x17b5 ||
		cp === 0x2800 || cp === 0x3164 || cp === 0xffa0 || (cp >= 0x180b && cp <= 0x180f) ||
		(cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef) ||
		cp === 0x16fe4 || cp === 0x1d159 || cp === 0x1bc9d || (cp >= 0x13430 && cp <= 0x1345f);
}

const hidden = {
	// test tells whether s holds a hidden character.
	test(s: string): boolean {
		if (unprintable.test(s)) return true;
		for (const ch of s) if (blank(ch.codePointAt(0)!)) return true;
		return false;
	},
};

// shellChars are the characters that mean something to a shell
// (syntax.Quote's list): a field holding one is quoted, so its ends show.
const shellChars = /[;"'()$|&><`\\#{~*?[= \t\r\n]/;

// keywords are bash's reserved words (syntax.IsKeyword): shown quoted.
const keywords = new Set(["!", "[[", "]]", "case", "coproc", "do", "done", "else", "esac", "fi", "for",
	"function", "if", "in", "select", "then", "time", "until", "while", "{", "}"]);

const named: Record<string, string> = {
	"\x07": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r",
};

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

// ansiC is s in bash's $'…' quoting, each hidden character escaped in
// syntax.Quote's spelling (\n, \x1b, \u202e, \U000e0041).
function ansiC(s: string): string {
	let out = "$'";
	for (const ch of s) {
		const cp = ch.codePointAt(0)!;
		if (ch === "'" || ch === "\\") out += "\\" + ch;
		else if (!hidden.test(ch)) out += ch;
		else if (named[ch]) out += named[ch];
		else if (cp < 0x80) out += "\\x" + hex(cp, 2);
		else if (cp < 0x10000) out += "\\u" + hex(cp, 4);
		else out += "\\U" + hex(cp, 8);
	}
	return out + "'";
}

// visible is one field (a name, a session, a directory) as the user is
// shown it: as is when plain; in $'…' when a character is hidden; else in
// single quotes (double when it holds one) when a character means
// something to a shell, such as a space or a quote, or it is a reserved
// word.
export function visible(s: string): string {
	if (s === "") return "''";
	if (hidden.test(s)) return ansiC(s);
	if (!shellChars.test(s) && !keywords.has(s)) return s;
	if (!s.includes("'")) return `'${s}'`;
	return `"${s.replace(/["\\`$]/g, "\\$&")}"`;
}

// visibleText is a step as shown: newlines and tabs kept, each other
// hidden character alone escaped as visible escapes it. The server
// escapes the step already; this holds when it did not.
export function visibleText(s: string): string {
	let out = "";
	for (const ch of s) out += ch === "\n" || ch === "\t" || !hidden.test(ch) ? ch : ansiC(ch);
	return out;
}

// indented is text with every line indented by four spaces, so no line
// of it starts where the dialog's own lines do.
export function indented(text: string): string {
	return text
		.split("\n")
		.map((l) => "    " + l)
		.join("\n");
}
