// The provider simulators the launcher can also run (`glint --simulate-portone`) live in the
// `Simulators` library; tests see them through TestSupport.
@_exported import Simulators
