// zipNames lists the names in a zip archive from its central directory
// (enough for a vsix; no zip64).

export function zipNames(zip: Buffer): string[] {
	let end = zip.length - 22;
	while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
	if (end < 0) throw new Error("not a zip: no end of central directory");
	const count = zip.readUInt16LE(end + 10);
	let at = zip.readUInt32LE(end + 16);
	const names: string[] = [];
	for (let i = 0; i < count; i++) {
		if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory entry at ${at}`);
		const nameLen = zip.readUInt16LE(at + 28);
		const extraLen = zip.readUInt16LE(at + 30);
		const commentLen = zip.readUInt16LE(at + 32);
		names.push(zip.toString("utf8", at + 46, at + 46 + nameLen));
		at += 46 + nameLen + extraLen + commentLen;
	}
	return names;
}
