// Package approvals is the terminal's side of G5: `eukhe approvals`
// attaches to the editor's eukhe server and to every headless session of
// a root (found through a Finder cmd gives: the discovery directory), and
// shows their questions one at a time, each answered y or N (Enter alone
// is no). The session's side of the link is agent.Terminals.
//
// Law → file:
//   - a question is shown as it would run, every invisible character
//     escaped, so that it cannot pose as the terminal's own lines
//     (TestATerminalQuestionCannotPoseAsItsOwnLines): answer.go
//     (questionPrompt, gate.Visible).
//   - Enter alone denies (TestEnterAloneInTheTerminalDenies); a line typed
//     for a question settled elsewhere answers nothing: the next question
//     is shown after an Enter (TestAYesForADroppedQuestionNeverAnswersTheNext):
//     answer.go (run).
package approvals
