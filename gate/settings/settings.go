package settings

import (
	"time"

	"github.com/eukhe/eukhe/gate"
)

// Settings are the settings in force: defaults, then the user file, then
// the project files (which cannot set an execution gate).
type Settings struct {
	// AutoEffects is shell.autoEffects: the effects a step may have and
	// still run unasked (S7.8). User file only.
	AutoEffects gate.AutoSet
	// SSHHosts is ssh.hosts: the hosts an ssh:// read may reach (S7.9).
	// User file only.
	SSHHosts []string
	// MCPServers is mcp.servers: the MCP servers the agent may call, by
	// name. User file only.
	MCPServers map[string]MCPServer
	// ApprovalTimeout is approval.timeoutSeconds: how long a question waits
	// for an answer before it is unanswered (a denial).
	ApprovalTimeout time.Duration
	// Elicitation is approval.elicitation: whether a session's questions
	// also go to the agent's own MCP client when it declared the
	// elicitation capability (default true). User file only.
	Elicitation bool
	// ReviewStyle is review.style: "inline" (keep or undo each hunk that
	// landed) or "off".
	ReviewStyle string
	// EditSave is edit.save: "clean" saves a document an edit changed when
	// it had no unsaved changes before; "never" leaves every edit unsaved.
	EditSave string
	// GrepExcludes is grep.excludes: glob patterns grep and glob skip; the
	// user's and then each project's.
	GrepExcludes []string
	// ShellBudget is shell.blockingBudgetSeconds: how long a bash call
	// blocks before its script becomes a job (S7.7).
	ShellBudget time.Duration
	// WritableDirs is shell.writableDirs: directories a confined step that
	// may write can write besides the workspace (build caches). User file
	// only; empty by default.
	WritableDirs []string
	// Confinement is shell.confinement: "auto" confines every external
	// process with the best sandbox that works here, else runs it
	// unconfined and says so; "require" refuses to run one unconfined;
	// "off" never confines. User file only.
	Confinement string
	// IPythonPython is ipython.python: the Python the ipython tool's kernel
	// runs (a path, or a name found on PATH); "" is python3, else python.
	// User file only: it names the program eukhe starts.
	IPythonPython string
}

// MCPServer is one entry of mcp.servers: a program to start (stdio) or a
// URL to reach (http).
type MCPServer struct {
	Type              string            `json:"type,omitempty"`
	Command           string            `json:"command,omitempty"`
	Args              []string          `json:"args,omitempty"`
	Env               map[string]string `json:"env,omitempty"`
	URL               string            `json:"url,omitempty"`
	Headers           map[string]string `json:"headers,omitempty"`
	BearerTokenEnvVar string            `json:"bearerTokenEnvVar,omitempty"`
}

// DefaultApprovalTimeout is approval.timeoutSeconds when no file sets it,
// and the wait of an approval broker given no timeout: the one default
// of how long a question waits (G5; agent.Broker).
const DefaultApprovalTimeout = 2 * time.Minute

// Defaults are the settings with no file.
func Defaults() Settings {
	return Settings{
		AutoEffects:     gate.DefaultAuto(),
		SSHHosts:        []string{},
		MCPServers:      map[string]MCPServer{},
		ApprovalTimeout: DefaultApprovalTimeout,
		Elicitation:     true,
		ReviewStyle:     "inline",
		EditSave:        "clean",
		GrepExcludes:    []string{},
		ShellBudget:     30 * time.Second,
		WritableDirs:    []string{},
		Confinement:     "auto",
	}
}

// File is what one settings file sets: a nil field is not set.
type File struct {
	AutoEffects     *gate.AutoSet
	SSHHosts        []string
	MCPServers      map[string]MCPServer
	ApprovalTimeout *time.Duration
	Elicitation     *bool
	ReviewStyle     *string
	EditSave        *string
	GrepExcludes    []string
	ShellBudget     *time.Duration
	WritableDirs    []string
	Confinement     *string
	IPythonPython   *string
}

// Merge is the settings in force: defaults, then the user file, then each
// project file in order. A project file never holds an execution gate
// (Parse drops it), so only the user file can set one.
func Merge(user *File, projects ...*File) Settings {
	s := Defaults()
	for _, f := range append([]*File{user}, projects...) {
		if f == nil {
			continue
		}
		if f.AutoEffects != nil {
			s.AutoEffects = *f.AutoEffects
		}
		if f.SSHHosts != nil {
			s.SSHHosts = append([]string(nil), f.SSHHosts...)
		}
		if f.MCPServers != nil {
			s.MCPServers = map[string]MCPServer{}
			for k, v := range f.MCPServers {
				s.MCPServers[k] = v
			}
		}
		if f.ApprovalTimeout != nil {
			s.ApprovalTimeout = *f.ApprovalTimeout
		}
		if f.Elicitation != nil {
			s.Elicitation = *f.Elicitation
		}
		if f.ReviewStyle != nil {
			s.ReviewStyle = *f.ReviewStyle
		}
		if f.EditSave != nil {
			s.EditSave = *f.EditSave
		}
		s.GrepExcludes = append(s.GrepExcludes, f.GrepExcludes...)
		if f.ShellBudget != nil {
			s.ShellBudget = *f.ShellBudget
		}
		if f.WritableDirs != nil {
			s.WritableDirs = append([]string(nil), f.WritableDirs...)
		}
		if f.IPythonPython != nil {
			s.IPythonPython = *f.IPythonPython
		}
		if f.Confinement != nil {
			s.Confinement = *f.Confinement
		}
	}
	return s
}
