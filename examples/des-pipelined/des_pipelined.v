// DES, fully pipelined and key-agile, "fixed latency" protocol. Written from FIPS 46-3.
// Plain Verilog-2005, one clock.
//
// Every clock the core takes a block (din), its key (key, 64 bits with the parity bits, which
// are ignored) and its direction (decrypt: 1 = decrypt). The result is on dout 17 clocks later:
// 16 round stages (one DES round each) plus an output register. Nothing is registered at the
// input: IP and PC-1 are wiring.
//
// The key travels with the block: each stage registers L, R and the 56-bit C, D halves of the
// key schedule and derives its own subkey with PC-2 after its rotation. Encryption rotates left
// by the FIPS 46-3 schedule (1,1,2,2,2,2,2,2,1,2,2,2,2,2,2,1) and uses K1..K16. Decryption uses
// K16..K1: stage 1 does not rotate (C16,D16 = C0,D0, 28 positions in all), stage s >= 2 rotates
// right by the shift of iteration 18-s.
//
// Bit order: bit 1 of FIPS 46-3 is the most significant bit of each port.
// reset (synchronous, active high) only clears the valid chain vin -> vout; the data registers
// have no reset.
module des_pipelined (
    input  wire        clk,
    input  wire        reset,
    input  wire        vin,
    input  wire [63:0] key,
    input  wire [63:0] din,
    input  wire        decrypt,
    output reg  [63:0] dout,
    output reg         vout
);

    // ------------------------------------------------------------------ FIPS 46-3 tables
    // Each table lists its entries in the standard's order; entry i (from 0) is in bits
    // [8*(N-1-i) +: 8]. Entries are bit numbers, 1 = most significant bit of the input.
    localparam [64*8-1:0] IP_T = {
        8'd58, 8'd50, 8'd42, 8'd34, 8'd26, 8'd18, 8'd10, 8'd2,
        8'd60, 8'd52, 8'd44, 8'd36, 8'd28, 8'd20, 8'd12, 8'd4,
        8'd62, 8'd54, 8'd46, 8'd38, 8'd30, 8'd22, 8'd14, 8'd6,
        8'd64, 8'd56, 8'd48, 8'd40, 8'd32, 8'd24, 8'd16, 8'd8,
        8'd57, 8'd49, 8'd41, 8'd33, 8'd25, 8'd17, 8'd9,  8'd1,
        8'd59, 8'd51, 8'd43, 8'd35, 8'd27, 8'd19, 8'd11, 8'd3,
        8'd61, 8'd53, 8'd45, 8'd37, 8'd29, 8'd21, 8'd13, 8'd5,
        8'd63, 8'd55, 8'd47, 8'd39, 8'd31, 8'd23, 8'd15, 8'd7};

    localparam [64*8-1:0] FP_T = {  // IP^-1
        8'd40, 8'd8, 8'd48, 8'd16, 8'd56, 8'd24, 8'd64, 8'd32,
        8'd39, 8'd7, 8'd47, 8'd15, 8'd55, 8'd23, 8'd63, 8'd31,
        8'd38, 8'd6, 8'd46, 8'd14, 8'd54, 8'd22, 8'd62, 8'd30,
        8'd37, 8'd5, 8'd45, 8'd13, 8'd53, 8'd21, 8'd61, 8'd29,
        8'd36, 8'd4, 8'd44, 8'd12, 8'd52, 8'd20, 8'd60, 8'd28,
        8'd35, 8'd3, 8'd43, 8'd11, 8'd51, 8'd19, 8'd59, 8'd27,
        8'd34, 8'd2, 8'd42, 8'd10, 8'd50, 8'd18, 8'd58, 8'd26,
        8'd33, 8'd1, 8'd41, 8'd9,  8'd49, 8'd17, 8'd57, 8'd25};

    localparam [48*8-1:0] E_T = {
        8'd32, 8'd1,  8'd2,  8'd3,  8'd4,  8'd5,
        8'd4,  8'd5,  8'd6,  8'd7,  8'd8,  8'd9,
        8'd8,  8'd9,  8'd10, 8'd11, 8'd12, 8'd13,
        8'd12, 8'd13, 8'd14, 8'd15, 8'd16, 8'd17,
        8'd16, 8'd17, 8'd18, 8'd19, 8'd20, 8'd21,
        8'd20, 8'd21, 8'd22, 8'd23, 8'd24, 8'd25,
        8'd24, 8'd25, 8'd26, 8'd27, 8'd28, 8'd29,
        8'd28, 8'd29, 8'd30, 8'd31, 8'd32, 8'd1};

    localparam [32*8-1:0] P_T = {
        8'd16, 8'd7,  8'd20, 8'd21,
        8'd29, 8'd12, 8'd28, 8'd17,
        8'd1,  8'd15, 8'd23, 8'd26,
        8'd5,  8'd18, 8'd31, 8'd10,
        8'd2,  8'd8,  8'd24, 8'd14,
        8'd32, 8'd27, 8'd3,  8'd9,
        8'd19, 8'd13, 8'd30, 8'd6,
        8'd22, 8'd11, 8'd4,  8'd25};

    localparam [56*8-1:0] PC1_T = {
        8'd57, 8'd49, 8'd41, 8'd33, 8'd25, 8'd17, 8'd9,
        8'd1,  8'd58, 8'd50, 8'd42, 8'd34, 8'd26, 8'd18,
        8'd10, 8'd2,  8'd59, 8'd51, 8'd43, 8'd35, 8'd27,
        8'd19, 8'd11, 8'd3,  8'd60, 8'd52, 8'd44, 8'd36,
        8'd63, 8'd55, 8'd47, 8'd39, 8'd31, 8'd23, 8'd15,
        8'd7,  8'd62, 8'd54, 8'd46, 8'd38, 8'd30, 8'd22,
        8'd14, 8'd6,  8'd61, 8'd53, 8'd45, 8'd37, 8'd29,
        8'd21, 8'd13, 8'd5,  8'd28, 8'd20, 8'd12, 8'd4};

    localparam [48*8-1:0] PC2_T = {
        8'd14, 8'd17, 8'd11, 8'd24, 8'd1,  8'd5,
        8'd3,  8'd28, 8'd15, 8'd6,  8'd21, 8'd10,
        8'd23, 8'd19, 8'd12, 8'd4,  8'd26, 8'd8,
        8'd16, 8'd7,  8'd27, 8'd20, 8'd13, 8'd2,
        8'd41, 8'd52, 8'd31, 8'd37, 8'd47, 8'd55,
        8'd30, 8'd40, 8'd51, 8'd45, 8'd33, 8'd48,
        8'd44, 8'd49, 8'd39, 8'd56, 8'd34, 8'd53,
        8'd46, 8'd42, 8'd50, 8'd36, 8'd29, 8'd32};

    // Left shifts of iterations 1..16; entry i (from 0) is iteration i+1.
    localparam [16*2-1:0] SHIFT_T = {
        2'd1, 2'd1, 2'd2, 2'd2, 2'd2, 2'd2, 2'd2, 2'd2,
        2'd1, 2'd2, 2'd2, 2'd2, 2'd2, 2'd2, 2'd2, 2'd1};

    // S-boxes: 4 rows of 16 entries each, row-major as printed in FIPS 46-3.
    localparam [255:0] S1_T = {
        4'd14, 4'd4,  4'd13, 4'd1,  4'd2,  4'd15, 4'd11, 4'd8,  4'd3,  4'd10, 4'd6,  4'd12, 4'd5,  4'd9,  4'd0,  4'd7,
        4'd0,  4'd15, 4'd7,  4'd4,  4'd14, 4'd2,  4'd13, 4'd1,  4'd10, 4'd6,  4'd12, 4'd11, 4'd9,  4'd5,  4'd3,  4'd8,
        4'd4,  4'd1,  4'd14, 4'd8,  4'd13, 4'd6,  4'd2,  4'd11, 4'd15, 4'd12, 4'd9,  4'd7,  4'd3,  4'd10, 4'd5,  4'd0,
        4'd15, 4'd12, 4'd8,  4'd2,  4'd4,  4'd9,  4'd1,  4'd7,  4'd5,  4'd11, 4'd3,  4'd14, 4'd10, 4'd0,  4'd6,  4'd13};
    localparam [255:0] S2_T = {
        4'd15, 4'd1,  4'd8,  4'd14, 4'd6,  4'd11, 4'd3,  4'd4,  4'd9,  4'd7,  4'd2,  4'd13, 4'd12, 4'd0,  4'd5,  4'd10,
        4'd3,  4'd13, 4'd4,  4'd7,  4'd15, 4'd2,  4'd8,  4'd14, 4'd12, 4'd0,  4'd1,  4'd10, 4'd6,  4'd9,  4'd11, 4'd5,
        4'd0,  4'd14, 4'd7,  4'd11, 4'd10, 4'd4,  4'd13, 4'd1,  4'd5,  4'd8,  4'd12, 4'd6,  4'd9,  4'd3,  4'd2,  4'd15,
        4'd13, 4'd8,  4'd10, 4'd1,  4'd3,  4'd15, 4'd4,  4'd2,  4'd11, 4'd6,  4'd7,  4'd12, 4'd0,  4'd5,  4'd14, 4'd9};
    localparam [255:0] S3_T = {
        4'd10, 4'd0,  4'd9,  4'd14, 4'd6,  4'd3,  4'd15, 4'd5,  4'd1,  4'd13, 4'd12, 4'd7,  4'd11, 4'd4,  4'd2,  4'd8,
        4'd13, 4'd7,  4'd0,  4'd9,  4'd3,  4'd4,  4'd6,  4'd10, 4'd2,  4'd8,  4'd5,  4'd14, 4'd12, 4'd11, 4'd15, 4'd1,
        4'd13, 4'd6,  4'd4,  4'd9,  4'd8,  4'd15, 4'd3,  4'd0,  4'd11, 4'd1,  4'd2,  4'd12, 4'd5,  4'd10, 4'd14, 4'd7,
        4'd1,  4'd10, 4'd13, 4'd0,  4'd6,  4'd9,  4'd8,  4'd7,  4'd4,  4'd15, 4'd14, 4'd3,  4'd11, 4'd5,  4'd2,  4'd12};
    localparam [255:0] S4_T = {
        4'd7,  4'd13, 4'd14, 4'd3,  4'd0,  4'd6,  4'd9,  4'd10, 4'd1,  4'd2,  4'd8,  4'd5,  4'd11, 4'd12, 4'd4,  4'd15,
        4'd13, 4'd8,  4'd11, 4'd5,  4'd6,  4'd15, 4'd0,  4'd3,  4'd4,  4'd7,  4'd2,  4'd12, 4'd1,  4'd10, 4'd14, 4'd9,
        4'd10, 4'd6,  4'd9,  4'd0,  4'd12, 4'd11, 4'd7,  4'd13, 4'd15, 4'd1,  4'd3,  4'd14, 4'd5,  4'd2,  4'd8,  4'd4,
        4'd3,  4'd15, 4'd0,  4'd6,  4'd10, 4'd1,  4'd13, 4'd8,  4'd9,  4'd4,  4'd5,  4'd11, 4'd12, 4'd7,  4'd2,  4'd14};
    localparam [255:0] S5_T = {
        4'd2,  4'd12, 4'd4,  4'd1,  4'd7,  4'd10, 4'd11, 4'd6,  4'd8,  4'd5,  4'd3,  4'd15, 4'd13, 4'd0,  4'd14, 4'd9,
        4'd14, 4'd11, 4'd2,  4'd12, 4'd4,  4'd7,  4'd13, 4'd1,  4'd5,  4'd0,  4'd15, 4'd10, 4'd3,  4'd9,  4'd8,  4'd6,
        4'd4,  4'd2,  4'd1,  4'd11, 4'd10, 4'd13, 4'd7,  4'd8,  4'd15, 4'd9,  4'd12, 4'd5,  4'd6,  4'd3,  4'd0,  4'd14,
        4'd11, 4'd8,  4'd12, 4'd7,  4'd1,  4'd14, 4'd2,  4'd13, 4'd6,  4'd15, 4'd0,  4'd9,  4'd10, 4'd4,  4'd5,  4'd3};
    localparam [255:0] S6_T = {
        4'd12, 4'd1,  4'd10, 4'd15, 4'd9,  4'd2,  4'd6,  4'd8,  4'd0,  4'd13, 4'd3,  4'd4,  4'd14, 4'd7,  4'd5,  4'd11,
        4'd10, 4'd15, 4'd4,  4'd2,  4'd7,  4'd12, 4'd9,  4'd5,  4'd6,  4'd1,  4'd13, 4'd14, 4'd0,  4'd11, 4'd3,  4'd8,
        4'd9,  4'd14, 4'd15, 4'd5,  4'd2,  4'd8,  4'd12, 4'd3,  4'd7,  4'd0,  4'd4,  4'd10, 4'd1,  4'd13, 4'd11, 4'd6,
        4'd4,  4'd3,  4'd2,  4'd12, 4'd9,  4'd5,  4'd15, 4'd10, 4'd11, 4'd14, 4'd1,  4'd7,  4'd6,  4'd0,  4'd8,  4'd13};
    localparam [255:0] S7_T = {
        4'd4,  4'd11, 4'd2,  4'd14, 4'd15, 4'd0,  4'd8,  4'd13, 4'd3,  4'd12, 4'd9,  4'd7,  4'd5,  4'd10, 4'd6,  4'd1,
        4'd13, 4'd0,  4'd11, 4'd7,  4'd4,  4'd9,  4'd1,  4'd10, 4'd14, 4'd3,  4'd5,  4'd12, 4'd2,  4'd15, 4'd8,  4'd6,
        4'd1,  4'd4,  4'd11, 4'd13, 4'd12, 4'd3,  4'd7,  4'd14, 4'd10, 4'd15, 4'd6,  4'd8,  4'd0,  4'd5,  4'd9,  4'd2,
        4'd6,  4'd11, 4'd13, 4'd8,  4'd1,  4'd4,  4'd10, 4'd7,  4'd9,  4'd5,  4'd0,  4'd15, 4'd14, 4'd2,  4'd3,  4'd12};
    localparam [255:0] S8_T = {
        4'd13, 4'd2,  4'd8,  4'd4,  4'd6,  4'd15, 4'd11, 4'd1,  4'd10, 4'd9,  4'd3,  4'd14, 4'd5,  4'd0,  4'd12, 4'd7,
        4'd1,  4'd15, 4'd13, 4'd8,  4'd10, 4'd3,  4'd7,  4'd4,  4'd12, 4'd5,  4'd6,  4'd11, 4'd0,  4'd14, 4'd9,  4'd2,
        4'd7,  4'd11, 4'd4,  4'd1,  4'd9,  4'd12, 4'd14, 4'd2,  4'd0,  4'd6,  4'd10, 4'd13, 4'd15, 4'd3,  4'd5,  4'd8,
        4'd2,  4'd1,  4'd14, 4'd7,  4'd4,  4'd10, 4'd8,  4'd13, 4'd15, 4'd12, 4'd9,  4'd0,  4'd3,  4'd5,  4'd6,  4'd11};

    // ------------------------------------------------------------------ functions
    function [63:0] ip;
        input [63:0] x;
        integer i;
        begin
            for (i = 0; i < 64; i = i + 1)
                ip[63 - i] = x[64 - IP_T[8*(63 - i) +: 8]];
        end
    endfunction

    function [63:0] fp;
        input [63:0] x;
        integer i;
        begin
            for (i = 0; i < 64; i = i + 1)
                fp[63 - i] = x[64 - FP_T[8*(63 - i) +: 8]];
        end
    endfunction

    function [55:0] pc1;  // 64-bit key -> C0 (bits 55:28), D0 (bits 27:0)
        input [63:0] k;
        integer i;
        begin
            for (i = 0; i < 56; i = i + 1)
                pc1[55 - i] = k[64 - PC1_T[8*(55 - i) +: 8]];
        end
    endfunction

    function [47:0] pc2;
        input [55:0] cd;
        integer i;
        begin
            for (i = 0; i < 48; i = i + 1)
                pc2[47 - i] = cd[56 - PC2_T[8*(47 - i) +: 8]];
        end
    endfunction

    function [3:0] sbox;  // row = first and last bit, column = middle four bits
        input [255:0] t;
        input [5:0]   b;
        reg   [5:0]   idx;
        begin
            idx  = {b[5], b[0], b[4:1]};
            sbox = t[4*(63 - idx) +: 4];
        end
    endfunction

    function [31:0] f;  // the cipher function f(R, K)
        input [31:0] r;
        input [47:0] k;
        reg   [47:0] e;
        reg   [31:0] s;
        integer i;
        begin
            for (i = 0; i < 48; i = i + 1)
                e[47 - i] = r[32 - E_T[8*(47 - i) +: 8]];
            e = e ^ k;
            s = {sbox(S1_T, e[47:42]), sbox(S2_T, e[41:36]), sbox(S3_T, e[35:30]),
                 sbox(S4_T, e[29:24]), sbox(S5_T, e[23:18]), sbox(S6_T, e[17:12]),
                 sbox(S7_T, e[11:6]),  sbox(S8_T, e[5:0])};
            for (i = 0; i < 32; i = i + 1)
                f[31 - i] = s[32 - P_T[8*(31 - i) +: 8]];
        end
    endfunction

    function [27:0] rotl;
        input [27:0] x;
        input [1:0]  n;
        begin
            case (n)
                2'd1:    rotl = {x[26:0], x[27]};
                2'd2:    rotl = {x[25:0], x[27:26]};
                default: rotl = x;
            endcase
        end
    endfunction

    function [27:0] rotr;
        input [27:0] x;
        input [1:0]  n;
        begin
            case (n)
                2'd1:    rotr = {x[0], x[27:1]};
                2'd2:    rotr = {x[1:0], x[27:2]};
                default: rotr = x;
            endcase
        end
    endfunction

    function [1:0] enc_shift;  // left shift of stage s (1..16)
        input integer s;
        begin
            enc_shift = SHIFT_T[2*(16 - s) +: 2];
        end
    endfunction

    function [1:0] dec_shift;  // right shift of stage s: none in stage 1, else iteration 18-s
        input integer s;
        begin
            if (s == 1)
                dec_shift = 2'd0;
            else
                dec_shift = SHIFT_T[2*(16 - (18 - s)) +: 2];
        end
    endfunction

    // ------------------------------------------------------------------ pipeline
    // Flat buses of the stage registers; slot 0 is the input (after IP and PC-1, no register),
    // slot s (1..16) the register of round s. Stage 16 registers no key and no direction.
    wire [32*17-1:0] Lb, Rb;
    wire [28*16-1:0] Cb, Db;
    wire [15:0]      decb;
    wire [16:0]      vldb;

    wire [63:0] ip_in = ip(din);
    wire [55:0] cd_in = pc1(key);
    assign Lb[31:0]  = ip_in[63:32];
    assign Rb[31:0]  = ip_in[31:0];
    assign Cb[27:0]  = cd_in[55:28];
    assign Db[27:0]  = cd_in[27:0];
    assign decb[0]   = decrypt;
    assign vldb[0]   = vin;

    genvar s;
    generate
        for (s = 1; s <= 16; s = s + 1) begin : round
            wire [31:0] l_i   = Lb[32*(s-1) +: 32];
            wire [31:0] r_i   = Rb[32*(s-1) +: 32];
            wire [27:0] c_i   = Cb[28*(s-1) +: 28];
            wire [27:0] d_i   = Db[28*(s-1) +: 28];
            wire        dec_i = decb[s-1];
            wire [27:0] c_o   = dec_i ? rotr(c_i, dec_shift(s)) : rotl(c_i, enc_shift(s));
            wire [27:0] d_o   = dec_i ? rotr(d_i, dec_shift(s)) : rotl(d_i, enc_shift(s));
            wire [47:0] k_s   = pc2({c_o, d_o});
            reg  [31:0] l_q, r_q;
            reg         vld_q;
            always @(posedge clk) begin
                l_q <= r_i;
                r_q <= l_i ^ f(r_i, k_s);
                if (reset)
                    vld_q <= 1'b0;
                else
                    vld_q <= vldb[s-1];
            end
            assign Lb[32*s +: 32] = l_q;
            assign Rb[32*s +: 32] = r_q;
            assign vldb[s]        = vld_q;
            if (s < 16) begin : keyreg
                reg [27:0] c_q, d_q;
                reg        dec_q;
                always @(posedge clk) begin
                    c_q   <= c_o;
                    d_q   <= d_o;
                    dec_q <= dec_i;
                end
                assign Cb[28*s +: 28] = c_q;
                assign Db[28*s +: 28] = d_q;
                assign decb[s]        = dec_q;
            end
        end
    endgenerate

    always @(posedge clk) begin
        dout <= fp({Rb[32*16 +: 32], Lb[32*16 +: 32]});   // preoutput R16 L16, then IP^-1
        if (reset)
            vout <= 1'b0;
        else
            vout <= vldb[16];
    end

endmodule
