// RPI_PICO's configuration, unchanged: the same name (sys.implementation._machine, from which
// board_config.build() picks the "pico" variant) and the same 1408 KiB littlefs at 0xA0000, so
// a board keeps its calibration and games when it moves between the stock and this firmware.
#define MICROPY_HW_BOARD_NAME                   "Raspberry Pi Pico"
#define MICROPY_HW_FLASH_STORAGE_BYTES          (1408 * 1024)
