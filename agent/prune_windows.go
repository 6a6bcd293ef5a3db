package agent

// oNoFollow has no os.OpenFile flag here: the prune's mark is opened as
// named.
const oNoFollow = 0
