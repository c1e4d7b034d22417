#pragma once
inline int scale() { return 3; }
