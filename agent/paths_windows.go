package agent

// windowsPaths: this system's paths are Windows paths (fileURIPath).
const windowsPaths = true
