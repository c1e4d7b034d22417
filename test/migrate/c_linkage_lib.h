/* Functions another C file of the program defines, which the file calls
   (NPB's `npb-C.h` declares its `randlc`, defined in `c_randdp.c`). */
float gain(int i);
