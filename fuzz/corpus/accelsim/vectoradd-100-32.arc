=== kernelslist.g
MemcpyHtoD,0x00007f2b2d500000,400
MemcpyHtoD,0x00007f2b2d500200,400
MemcpyHtoD,0x00007f2b2d500400,400
kernel-1.traceg

=== kernel-1.traceg
-kernel name = _Z6vecAddIfEvPT_S1_S1_i
-kernel id = 1
-grid dim = (1,1,1)
-block dim = (1024,1,1)
-shmem = 0
-nregs = 8
-binary version = 61
-cuda stream id = 0
-shmem base_addr = 0x00007f2b5a000000
-local mem base_addr = 0x00007f2b58000000
-nvbit version = 1.5.5
-accelsim tracer version = 4
-enable lineinfo = 0

#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]



#BEGIN_TB

thread block = 0,0,0

warp = 0
insts = 23
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 00000000 0 EXIT 0 0 
0068 ffffffff 1 R6 SHL 1 R0 0 
0070 ffffffff 1 R0 SHR 1 R0 0 
0078 ffffffff 1 R4 IADD 1 R6 0 
0088 ffffffff 1 R5 IADD.X 1 R0 0 
0090 ffffffff 1 R2 IADD 1 R6 0 
0098 ffffffff 1 R4 LDG.E.CG 1 R4 4 1 0x7f2b2d500000 4 
00a8 ffffffff 1 R3 IADD.X 1 R0 0 
00b0 ffffffff 1 R2 LDG.E.CG 1 R2 4 1 0x7f2b2d500200 4 
00b8 ffffffff 1 R6 IADD 1 R6 0 
00c8 ffffffff 1 R7 IADD.X 1 R0 0 
00d0 ffffffff 1 R0 FADD 2 R2 R4 0 
00d8 ffffffff 0 STG.E 2 R6 R0 4 1 0x7f2b2d500400 4 
00e8 ffffffff 0 NOP 0 0 
00f0 ffffffff 0 EXIT 0 0 

warp = 1
insts = 23
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 00000000 0 EXIT 0 0 
0068 ffffffff 1 R6 SHL 1 R0 0 
0070 ffffffff 1 R0 SHR 1 R0 0 
0078 ffffffff 1 R4 IADD 1 R6 0 
0088 ffffffff 1 R5 IADD.X 1 R0 0 
0090 ffffffff 1 R2 IADD 1 R6 0 
0098 ffffffff 1 R4 LDG.E.CG 1 R4 4 1 0x7f2b2d500080 4 
00a8 ffffffff 1 R3 IADD.X 1 R0 0 
00b0 ffffffff 1 R2 LDG.E.CG 1 R2 4 1 0x7f2b2d500280 4 
00b8 ffffffff 1 R6 IADD 1 R6 0 
00c8 ffffffff 1 R7 IADD.X 1 R0 0 
00d0 ffffffff 1 R0 FADD 2 R2 R4 0 
00d8 ffffffff 0 STG.E 2 R6 R0 4 1 0x7f2b2d500480 4 
00e8 ffffffff 0 NOP 0 0 
00f0 ffffffff 0 EXIT 0 0 

warp = 2
insts = 23
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 00000000 0 EXIT 0 0 
0068 ffffffff 1 R6 SHL 1 R0 0 
0070 ffffffff 1 R0 SHR 1 R0 0 
0078 ffffffff 1 R4 IADD 1 R6 0 
0088 ffffffff 1 R5 IADD.X 1 R0 0 
0090 ffffffff 1 R2 IADD 1 R6 0 
0098 ffffffff 1 R4 LDG.E.CG 1 R4 4 1 0x7f2b2d500100 4 
00a8 ffffffff 1 R3 IADD.X 1 R0 0 
00b0 ffffffff 1 R2 LDG.E.CG 1 R2 4 1 0x7f2b2d500300 4 
00b8 ffffffff 1 R6 IADD 1 R6 0 
00c8 ffffffff 1 R7 IADD.X 1 R0 0 
00d0 ffffffff 1 R0 FADD 2 R2 R4 0 
00d8 ffffffff 0 STG.E 2 R6 R0 4 1 0x7f2b2d500500 4 
00e8 ffffffff 0 NOP 0 0 
00f0 ffffffff 0 EXIT 0 0 

warp = 3
insts = 23
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 fffffff0 0 EXIT 0 0 
0068 0000000f 1 R6 SHL 1 R0 0 
0070 0000000f 1 R0 SHR 1 R0 0 
0078 0000000f 1 R4 IADD 1 R6 0 
0088 0000000f 1 R5 IADD.X 1 R0 0 
0090 0000000f 1 R2 IADD 1 R6 0 
0098 0000000f 1 R4 LDG.E.CG 1 R4 4 1 0x7f2b2d500180 4 
00a8 0000000f 1 R3 IADD.X 1 R0 0 
00b0 0000000f 1 R2 LDG.E.CG 1 R2 4 1 0x7f2b2d500380 4 
00b8 0000000f 1 R6 IADD 1 R6 0 
00c8 0000000f 1 R7 IADD.X 1 R0 0 
00d0 0000000f 1 R0 FADD 2 R2 R4 0 
00d8 0000000f 0 STG.E 2 R6 R0 4 1 0x7f2b2d500580 4 
00e8 0000000f 0 NOP 0 0 
00f0 0000000f 0 EXIT 0 0 

warp = 4
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 5
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 6
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 7
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 8
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 9
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 10
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 11
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 12
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 13
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 14
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 15
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 16
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 17
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 18
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 19
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 20
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 21
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 22
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 23
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 24
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 25
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 26
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 27
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 28
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 29
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 30
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

warp = 31
insts = 9
0008 ffffffff 1 R1 MOV 0 0 
0010 ffffffff 1 R0 S2R 0 0 
0018 ffffffff 1 R2 S2R 0 0 
0028 ffffffff 1 R3 XMAD.MRG 2 R0 R255 0 
0030 ffffffff 1 R2 XMAD 2 R0 R2 0 
0038 ffffffff 1 R0 XMAD.PSL.CBCC 3 R0 R3 R2 0 
0048 ffffffff 0 ISETP.GE.AND 1 R0 0 
0050 ffffffff 0 NOP 0 0 
0058 ffffffff 0 EXIT 0 0 

#END_TB
