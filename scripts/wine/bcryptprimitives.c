/*
 * A test-only stand-in for Windows 10's bcryptprimitives.dll, for Debian 12's
 * wine 8.0, which lacks it. Go 1.24+ programs call ProcessPrng from it at
 * start-up and abort ("bcryptprimitives.dll not found") without it; every
 * supported Windows (10, 11, Server 2016+) has the real one. scripts/release.sh
 * builds this with mingw and copies it into its private wine prefix only; it
 * is never shipped. ProcessPrng fills the buffer from the system RNG and, as
 * documented, always returns TRUE.
 */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
	while (size > 0) {
		ULONG n = size > 0x40000000 ? 0x40000000 : (ULONG)size;
		if (BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
			ExitProcess(0xC000000D); /* never return unrandom bytes */
		data += n;
		size -= n;
	}
	return TRUE;
}
