// The system zlib, for reading gzip files (geo-svc's boundary data).
#include <zlib.h>
