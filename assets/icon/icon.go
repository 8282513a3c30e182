// Package icon embeds the application icon (drawn for this project with
// ImageMagick primitives: a blue tile, a gold bound triangle).
package icon

import _ "embed"

//go:embed icon.png
var png []byte

// PNG returns the icon as PNG bytes.
func PNG() []byte { return png }
