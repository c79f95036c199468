/* ptx_types.c: the names of PTX types, state spaces and special registers
 * (see ptx.h), shared by the parser, the decoder and the messages. */
#include "ptx.h"

#include <string.h>

static const struct {
    const char *name;
    int size;
} type_info[PTX_T_COUNT] = {
    [PTX_T_NONE] = {"?", 0},
    [PTX_T_B8] = {"b8", 1}, [PTX_T_B16] = {"b16", 2}, [PTX_T_B32] = {"b32", 4},
    [PTX_T_B64] = {"b64", 8}, [PTX_T_B128] = {"b128", 16},
    [PTX_T_U8] = {"u8", 1}, [PTX_T_U16] = {"u16", 2}, [PTX_T_U32] = {"u32", 4},
    [PTX_T_U64] = {"u64", 8},
    [PTX_T_S8] = {"s8", 1}, [PTX_T_S16] = {"s16", 2}, [PTX_T_S32] = {"s32", 4},
    [PTX_T_S64] = {"s64", 8},
    [PTX_T_F16] = {"f16", 2}, [PTX_T_F16X2] = {"f16x2", 4}, [PTX_T_BF16] = {"bf16", 2},
    [PTX_T_BF16X2] = {"bf16x2", 4}, [PTX_T_F32] = {"f32", 4}, [PTX_T_F64] = {"f64", 8},
    [PTX_T_PRED] = {"pred", 0},
};

int ptx_type_size(PtxType t)
{
    return (unsigned)t < PTX_T_COUNT ? type_info[t].size : 0;
}

bool ptx_type_is_signed(PtxType t)
{
    return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

bool ptx_type_is_float(PtxType t)
{
    return t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 || t == PTX_T_BF16X2 || t == PTX_T_F32 ||
           t == PTX_T_F64;
}

const char *ptx_type_name(PtxType t)
{
    return (unsigned)t < PTX_T_COUNT ? type_info[t].name : "?";
}

PtxType ptx_type_from_name(const char *word)
{
    if (!word)
        return PTX_T_NONE;
    for (int t = PTX_T_NONE + 1; t < PTX_T_COUNT; t++)
        if (!strcmp(word, type_info[t].name))
            return (PtxType)t;
    return PTX_T_NONE;
}

const char *ptx_space_name(PtxSpace s)
{
    switch (s) {
    case PTX_SPACE_NONE: return "generic";
    case PTX_SPACE_REG: return "reg";
    case PTX_SPACE_GLOBAL: return "global";
    case PTX_SPACE_SHARED: return "shared";
    case PTX_SPACE_LOCAL: return "local";
    case PTX_SPACE_CONST: return "const";
    case PTX_SPACE_PARAM: return "param";
    }
    return "?";
}

static const char *const sreg_names[PTX_SREG_COUNT] = {
    [PTX_SREG_TID_X] = "%tid.x", [PTX_SREG_TID_Y] = "%tid.y", [PTX_SREG_TID_Z] = "%tid.z",
    [PTX_SREG_NTID_X] = "%ntid.x", [PTX_SREG_NTID_Y] = "%ntid.y", [PTX_SREG_NTID_Z] = "%ntid.z",
    [PTX_SREG_CTAID_X] = "%ctaid.x", [PTX_SREG_CTAID_Y] = "%ctaid.y",
    [PTX_SREG_CTAID_Z] = "%ctaid.z",
    [PTX_SREG_NCTAID_X] = "%nctaid.x", [PTX_SREG_NCTAID_Y] = "%nctaid.y",
    [PTX_SREG_NCTAID_Z] = "%nctaid.z",
    [PTX_SREG_LANEID] = "%laneid", [PTX_SREG_WARPID] = "%warpid", [PTX_SREG_NWARPID] = "%nwarpid",
    [PTX_SREG_SMID] = "%smid", [PTX_SREG_NSMID] = "%nsmid", [PTX_SREG_GRIDID] = "%gridid",
    [PTX_SREG_LANEMASK_EQ] = "%lanemask_eq", [PTX_SREG_LANEMASK_LE] = "%lanemask_le",
    [PTX_SREG_LANEMASK_LT] = "%lanemask_lt", [PTX_SREG_LANEMASK_GE] = "%lanemask_ge",
    [PTX_SREG_LANEMASK_GT] = "%lanemask_gt",
    [PTX_SREG_CLOCK] = "%clock", [PTX_SREG_CLOCK_HI] = "%clock_hi", [PTX_SREG_CLOCK64] = "%clock64",
    [PTX_SREG_GLOBALTIMER] = "%globaltimer", [PTX_SREG_GLOBALTIMER_LO] = "%globaltimer_lo",
    [PTX_SREG_GLOBALTIMER_HI] = "%globaltimer_hi",
    [PTX_SREG_DYNAMIC_SMEM_SIZE] = "%dynamic_smem_size",
    [PTX_SREG_TOTAL_SMEM_SIZE] = "%total_smem_size",
    [PTX_SREG_ACTIVEMASK] = "%activemask",
    [PTX_SREG_CLUSTER_CTARANK] = "%cluster_ctarank",
    [PTX_SREG_CLUSTER_NCTARANK] = "%cluster_nctarank",
    [PTX_SREG_CLUSTER_CTAID_X] = "%cluster_ctaid.x", [PTX_SREG_CLUSTER_CTAID_Y] = "%cluster_ctaid.y",
    [PTX_SREG_CLUSTER_CTAID_Z] = "%cluster_ctaid.z",
    [PTX_SREG_CLUSTER_NCTAID_X] = "%cluster_nctaid.x",
    [PTX_SREG_CLUSTER_NCTAID_Y] = "%cluster_nctaid.y",
    [PTX_SREG_CLUSTER_NCTAID_Z] = "%cluster_nctaid.z",
    [PTX_SREG_CLUSTERID_X] = "%clusterid.x", [PTX_SREG_CLUSTERID_Y] = "%clusterid.y",
    [PTX_SREG_CLUSTERID_Z] = "%clusterid.z",
    [PTX_SREG_NCLUSTERID_X] = "%nclusterid.x", [PTX_SREG_NCLUSTERID_Y] = "%nclusterid.y",
    [PTX_SREG_NCLUSTERID_Z] = "%nclusterid.z",
    [PTX_SREG_IS_EXPLICIT_CLUSTER] = "%is_explicit_cluster",
    [PTX_SREG_ENVREG0 + 0] = "%envreg0",
    [PTX_SREG_ENVREG0 + 1] = "%envreg1",
    [PTX_SREG_ENVREG0 + 2] = "%envreg2",
    [PTX_SREG_ENVREG0 + 3] = "%envreg3",
    [PTX_SREG_ENVREG0 + 4] = "%envreg4",
    [PTX_SREG_ENVREG0 + 5] = "%envreg5",
    [PTX_SREG_ENVREG0 + 6] = "%envreg6",
    [PTX_SREG_ENVREG0 + 7] = "%envreg7",
    [PTX_SREG_ENVREG0 + 8] = "%envreg8",
    [PTX_SREG_ENVREG0 + 9] = "%envreg9",
    [PTX_SREG_ENVREG0 + 10] = "%envreg10",
    [PTX_SREG_ENVREG0 + 11] = "%envreg11",
    [PTX_SREG_ENVREG0 + 12] = "%envreg12",
    [PTX_SREG_ENVREG0 + 13] = "%envreg13",
    [PTX_SREG_ENVREG0 + 14] = "%envreg14",
    [PTX_SREG_ENVREG0 + 15] = "%envreg15",
    [PTX_SREG_ENVREG0 + 16] = "%envreg16",
    [PTX_SREG_ENVREG0 + 17] = "%envreg17",
    [PTX_SREG_ENVREG0 + 18] = "%envreg18",
    [PTX_SREG_ENVREG0 + 19] = "%envreg19",
    [PTX_SREG_ENVREG0 + 20] = "%envreg20",
    [PTX_SREG_ENVREG0 + 21] = "%envreg21",
    [PTX_SREG_ENVREG0 + 22] = "%envreg22",
    [PTX_SREG_ENVREG0 + 23] = "%envreg23",
    [PTX_SREG_ENVREG0 + 24] = "%envreg24",
    [PTX_SREG_ENVREG0 + 25] = "%envreg25",
    [PTX_SREG_ENVREG0 + 26] = "%envreg26",
    [PTX_SREG_ENVREG0 + 27] = "%envreg27",
    [PTX_SREG_ENVREG0 + 28] = "%envreg28",
    [PTX_SREG_ENVREG0 + 29] = "%envreg29",
    [PTX_SREG_ENVREG0 + 30] = "%envreg30",
    [PTX_SREG_ENVREG0 + 31] = "%envreg31",
};

const char *ptx_sreg_name(PtxSreg s)
{
    return (unsigned)s < PTX_SREG_COUNT ? sreg_names[s] : NULL;
}

PtxSreg ptx_sreg_from_name(const char *name)
{
    if (!name)
        return PTX_SREG_NONE;
    for (int s = PTX_SREG_NONE + 1; s < PTX_SREG_COUNT; s++)
        if (sreg_names[s] && !strcmp(name, sreg_names[s]))
            return (PtxSreg)s;
    return PTX_SREG_NONE;
}
