; The CuBE Workbench installer for Windows (NSIS 3, built on Debian by
; scripts/release.sh with makensis). Per user, no administrator rights:
; installs to %LOCALAPPDATA%\Programs\CuBE Workbench, shortcuts in the user's
; Start menu and on the desktop, an uninstaller registered under HKCU.
; Chinese pages first, English second (the language is asked once).
;
; makensis -DVERSION=0.1.0-dev.7+g1a2b3c -DVERSION4=0.1.0.7 -DSRCDIR=dir -DOUTFILE=setup.exe installer.nsi
; SRCDIR holds cube.exe, cubectl.exe, OFL.txt and README.txt.

Unicode true
; A 64-bit installer for a 64-bit app: it runs where cube.exe can, and under
; Debian's wine64 without the i386 multiarch wine32.
Target amd64-unicode
ManifestDPIAware true
!macro Require NAME
  !ifndef ${NAME}
    !error "pass -D${NAME}=... (see scripts/release.sh)"
  !endif
!macroend
!insertmacro Require VERSION
!insertmacro Require VERSION4
!insertmacro Require SRCDIR
!insertmacro Require OUTFILE

!define APPNAME "CuBE Workbench"
!define APPID "org.cubeworkbench.cube"
!define UNINSTKEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\${APPID}"

Name "${APPNAME}"
OutFile "${OUTFILE}"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\${APPNAME}"
InstallDirRegKey HKCU "Software\${APPID}" "InstallDir"
SetCompressor /SOLID lzma

VIProductVersion "${VERSION4}"
VIFileVersion "${VERSION4}"
VIAddVersionKey /LANG=0 "ProductName" "${APPNAME}"
VIAddVersionKey /LANG=0 "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileDescription" "${APPNAME} Setup"
VIAddVersionKey /LANG=0 "LegalCopyright" "CuBE Workbench contributors"

!include "MUI2.nsh"
!define MUI_ICON "${SRCDIR}\cube.ico"
!define MUI_UNICON "${SRCDIR}\cube.ico"
!define MUI_ABORTWARNING
!define MUI_LANGDLL_ALLLANGUAGES
!define MUI_LANGDLL_REGISTRY_ROOT HKCU
!define MUI_LANGDLL_REGISTRY_KEY "Software\${APPID}"
!define MUI_LANGDLL_REGISTRY_VALUENAME "InstallerLanguage"
!define MUI_FINISHPAGE_RUN "$INSTDIR\cube.exe"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES

!insertmacro MUI_LANGUAGE "SimpChinese"
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_RESERVEFILE_LANGDLL

LangString ShortcutDesc ${LANG_SIMPCHINESE} "政务 RAG 助手评测工作台"
LangString ShortcutDesc ${LANG_ENGLISH} "Evaluate a government-service RAG assistant"
LangString UninstallName ${LANG_SIMPCHINESE} "卸载 ${APPNAME}"
LangString UninstallName ${LANG_ENGLISH} "Uninstall ${APPNAME}"
LangString KeptData ${LANG_SIMPCHINESE} "您的设置和评测记录保留在 $APPDATA\${APPNAME} 与 $LOCALAPPDATA\${APPNAME}，导出的报告保留在“文档”中；如不再需要，可手动删除。"
LangString KeptData ${LANG_ENGLISH} "Your settings and runs stay in $APPDATA\${APPNAME} and $LOCALAPPDATA\${APPNAME}, exported reports in Documents; delete them by hand if you no longer need them."

Function .onInit
  !insertmacro MUI_LANGDLL_DISPLAY
FunctionEnd

Function un.onInit
  !insertmacro MUI_UNGETLANGUAGE
FunctionEnd

Section "Install"
  SetShellVarContext current
  SetOutPath "$INSTDIR"
  File "${SRCDIR}\cube.exe"
  File "${SRCDIR}\cubectl.exe"
  File "${SRCDIR}\OFL.txt"
  File "${SRCDIR}\README.txt"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  CreateDirectory "$SMPROGRAMS\${APPNAME}"
  CreateShortcut "$SMPROGRAMS\${APPNAME}\${APPNAME}.lnk" "$INSTDIR\cube.exe" "" "$INSTDIR\cube.exe" 0 SW_SHOWNORMAL "" "$(ShortcutDesc)"
  CreateShortcut "$SMPROGRAMS\${APPNAME}\$(UninstallName).lnk" "$INSTDIR\uninstall.exe"
  CreateShortcut "$DESKTOP\${APPNAME}.lnk" "$INSTDIR\cube.exe" "" "$INSTDIR\cube.exe" 0 SW_SHOWNORMAL "" "$(ShortcutDesc)"

  WriteRegStr HKCU "Software\${APPID}" "InstallDir" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTKEY}" "DisplayName" "${APPNAME}"
  WriteRegStr HKCU "${UNINSTKEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTKEY}" "DisplayIcon" "$INSTDIR\cube.exe"
  WriteRegStr HKCU "${UNINSTKEY}" "Publisher" "CuBE Workbench"
  WriteRegStr HKCU "${UNINSTKEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTKEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTKEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTKEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTKEY}" "NoRepair" 1
  SectionGetSize 0 $0
  WriteRegDWORD HKCU "${UNINSTKEY}" "EstimatedSize" $0
SectionEnd

; The uninstaller removes what the installer wrote, and nothing of the
; user's: settings, run stores and exported reports stay (it says where).
Section "Uninstall"
  SetShellVarContext current
  Delete "$DESKTOP\${APPNAME}.lnk"
  RMDir /r "$SMPROGRAMS\${APPNAME}"
  Delete "$INSTDIR\cube.exe"
  Delete "$INSTDIR\cubectl.exe"
  Delete "$INSTDIR\OFL.txt"
  Delete "$INSTDIR\README.txt"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINSTKEY}"
  DeleteRegKey HKCU "Software\${APPID}"
  IfSilent +2
  MessageBox MB_OK|MB_ICONINFORMATION "$(KeptData)"
SectionEnd
