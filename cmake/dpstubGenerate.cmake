# dpstub_generate(<target> [SOURCES ...]) is provided with the tool.
