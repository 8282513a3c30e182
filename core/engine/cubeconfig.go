package engine

import (
	"cubeworkbench/core/cube"
	"cubeworkbench/core/dataset"
	"cubeworkbench/core/profile"
)

// CubeConfig is the CuBE configuration an evaluation of wb under p uses
// (documents compared through wb's guide index), for callers that compute
// CuBE figures beside the engine — a before/after comparison must use the
// very configuration each side was evaluated with.
func CubeConfig(p profile.Profile, wb *dataset.Workbook) (cube.Config, error) {
	return cubeConfig(p, wb)
}
