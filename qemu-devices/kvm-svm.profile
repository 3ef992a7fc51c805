# KVM inside the lab guest (virt/kvm/kvm_main.c): the lab runs QEMU under
# TCG, which emulates AMD's SVM, so the guest kernel's kvm_amd loads and
# runs a vCPU of its own (nested, on emulated VMRUN). kvm_amd wants an AMD
# vendor string and the svm CPUID bit (cpu_has_svm), SVM not disabled in
# MSR_VM_CR (TCG reads it as 0) and NX (svm_hardware_setup): qemu64 is
# AuthenticAMD with NX; +svm says the bit is wanted rather than relying on
# the model's default. Without NPT in qemu64 KVM uses shadow paging.
# virt/kvm-stats drives /dev/kvm, a VM and a vCPU fd, KVM_RUN, the binary
# stats fds that patches/core 0113 gives generic_file_llseek, and the VM's
# debugfs files whose no_llseek 0063 drops.
description=kvm_amd on TCG's emulated SVM: /dev/kvm, a VM, a vCPU run, binary stats fds, the VM's debugfs files
qemu=-cpu qemu64,+svm
# KVM depends on high-resolution timers, which allnoconfig, where every
# lab kernel starts, leaves off.
kconfig=CONFIG_HIGH_RES_TIMERS=y
kconfig=CONFIG_VIRTUALIZATION=y
kconfig=CONFIG_KVM=m
kconfig=CONFIG_KVM_AMD=m
# The guest cannot calibrate its TSC under TCG ("tsc: Unable to calibrate
# against PIT"), so tsc_khz is 0, and KVM_RUN then never enters the guest:
# kvm_guest_time_update() finds cpu_tsc_khz 0, asks for another clock
# update and returns, forever (2.3 million calls in 5 s, not one exit).
# TCG's TSC is the host's (cpu_get_host_ticks), which runs at 2.6 GHz on
# the lab machine; the exact figure only scales the vCPU's kvmclock.
# With a known rate the TSC would become the clocksource, but every lab
# boot marks it unstable from the start (tsc=unstable in LAB_APPEND,
# scripts/lab/lib.sh), so the guest's clock stays refined-jiffies.
cmdline=tsc_early_khz=2600000
module=kvm_amd
tests=virt/kvm-stats
timeout=90
