package protocol

// MethodSettingsStatus is a client → server request: the settings files
// the server reads and the problems of each now (an invalid file keeps its
// last good settings in force), for a health check. Params: none (an empty
// object). Result: SettingsStatusResult.
const MethodSettingsStatus = "eukhe/settingsStatus"

// SettingsStatusResult lists every settings file the server reads, user
// file first.
type SettingsStatusResult struct {
	Files []SettingsFileStatus `json:"files"`
	// Confinement is how the external programs of a step are confined:
	// "bubblewrap", "landlock (why)" or "none (why)".
	Confinement string `json:"confinement,omitempty"`
}

// SettingsFileStatus is one file: "ok", "warning" or "error", with each
// problem as "FILE:LINE:COL: what" (or "FILE: what").
type SettingsFileStatus struct {
	File     string   `json:"file"`
	Level    string   `json:"level"`
	Problems []string `json:"problems,omitempty"`
}
