// The system zlib, for ZlibCoding's gzip (geo-svc's boundary data, snapshots).
#include <zlib.h>
