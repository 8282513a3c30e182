package userdirs

import "golang.org/x/sys/windows"

// knownDocuments asks the shell for FOLDERID_Documents, which follows
// folder redirection (OneDrive, another drive, a network share).
func knownDocuments() (string, error) {
	return windows.KnownFolderPath(windows.FOLDERID_Documents, windows.KF_FLAG_DEFAULT)
}
