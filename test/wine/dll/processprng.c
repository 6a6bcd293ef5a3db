/* For Wine only: Go 1.24 and later ask bcryptprimitives.dll for
   ProcessPrng, which Windows 10 and later have and Wine 8 lacks. This
   stand-in gives it over RtlGenRandom (advapi32's SystemFunction036).
   test/wine/run.sh builds it and puts it in the Wine prefix; nothing
   else uses it, and no release holds it. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
