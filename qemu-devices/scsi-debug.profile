# A SCSI medium changer without a library: scsi_debug with ptype=8 answers
# INQUIRY as a medium changer, the ch driver binds it as /dev/sch0 and
# scsi/changer drives its ioctls (the element status the emulation reports).
# scsi_debug has no MODE SENSE page 0x1d and no changer command, so ch
# finds no element of the four standard types; ch's own vendor_firsts= and
# vendor_counts= give it two vendor element types (2 elements at 0x100, 3
# at 0x200: the counts scsi/changer pins) for the element ioctls to use.
description=scsi_debug medium changer: ch (/dev/sch0)
kconfig=CONFIG_SCSI=m
kconfig=CONFIG_SCSI_LOWLEVEL=y
kconfig=CONFIG_SCSI_DEBUG=m
kconfig=CONFIG_CHR_DEV_SCH=m
module=scsi_debug ptype=8
module=ch vendor_firsts=0x100,0x200 vendor_counts=2,3
tests=scsi/changer
timeout=60
