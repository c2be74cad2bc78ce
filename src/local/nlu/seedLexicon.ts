// The built-in gazetteer: a modest, hand-picked list of well-known places and organisations in English
// and Japanese. It is a starting point, not a knowledge base — anything else is taught through
// add_phrase/train. Ambiguous common words are left out on purpose (May, Apple, Meta, Georgia, WHO…).

// prettier-ignore
const COUNTRIES_EN = [
  'Japan', 'China', 'South Korea', 'North Korea', 'Korea', 'Taiwan', 'India', 'Indonesia', 'Thailand', 'Vietnam', 'Singapore',
  'Malaysia', 'Philippines', 'Australia', 'New Zealand', 'United States', 'United States of America', 'USA', 'U.S.', 'Canada',
  'Mexico', 'Brazil', 'Argentina', 'Chile', 'United Kingdom', 'UK', 'Ireland', 'France', 'Germany', 'Italy', 'Spain',
  'Portugal', 'Netherlands', 'Belgium', 'Switzerland', 'Austria', 'Sweden', 'Norway', 'Denmark', 'Finland', 'Poland',
  'Russia', 'Ukraine', 'Greece', 'Egypt', 'South Africa', 'Nigeria', 'Kenya', 'Saudi Arabia', 'United Arab Emirates',
  'Israel', 'Iran', 'Pakistan', 'Bangladesh',
];

// prettier-ignore
const CITIES_EN = [
  'Tokyo', 'Osaka', 'Kyoto', 'Yokohama', 'Nagoya', 'Sapporo', 'Fukuoka', 'Kobe', 'Sendai', 'Hiroshima', 'Kawasaki',
  'Shibuya', 'Shinjuku', 'Hokkaido', 'Okinawa', 'Seoul', 'Beijing', 'Shanghai', 'Hong Kong', 'Taipei', 'Bangkok',
  'Jakarta', 'Manila', 'Mumbai', 'Delhi', 'New Delhi', 'Bangalore', 'Sydney', 'Melbourne', 'New York', 'New York City',
  'Los Angeles', 'San Francisco', 'Seattle', 'Chicago', 'Boston', 'Washington, D.C.', 'Toronto', 'Vancouver',
  'London', 'Paris', 'Berlin', 'Munich', 'Madrid', 'Barcelona', 'Rome', 'Milan', 'Amsterdam', 'Brussels', 'Zurich',
  'Geneva', 'Vienna', 'Stockholm', 'Moscow', 'Dubai', 'Cairo', 'São Paulo', 'Mexico City', 'Silicon Valley',
];

// prettier-ignore
const COUNTRIES_JA = [
  '日本', '中国', '韓国', '北朝鮮', '台湾', 'インド', 'インドネシア', 'タイ', 'ベトナム', 'シンガポール', 'マレーシア', 'フィリピン',
  'オーストラリア', 'ニュージーランド', 'アメリカ', 'アメリカ合衆国', '米国', 'カナダ', 'メキシコ', 'ブラジル', 'イギリス', '英国',
  'アイルランド', 'フランス', 'ドイツ', 'イタリア', 'スペイン', 'ポルトガル', 'オランダ', 'ベルギー', 'スイス', 'オーストリア',
  'スウェーデン', 'ノルウェー', 'デンマーク', 'フィンランド', 'ポーランド', 'ロシア', 'ウクライナ', 'ギリシャ', 'エジプト',
  '南アフリカ', 'サウジアラビア', 'アラブ首長国連邦', 'イスラエル', 'イラン',
];

// The 47 prefectures: with their suffix (東京都, 大阪府, 愛知県) and without (東京, 大阪, 愛知).
// prettier-ignore
const PREFECTURES = [
  '北海道', '青森県', '岩手県', '宮城県', '秋田県', '山形県', '福島県', '茨城県', '栃木県', '群馬県', '埼玉県', '千葉県', '東京都',
  '神奈川県', '新潟県', '富山県', '石川県', '福井県', '山梨県', '長野県', '岐阜県', '静岡県', '愛知県', '三重県', '滋賀県', '京都府',
  '大阪府', '兵庫県', '奈良県', '和歌山県', '鳥取県', '島根県', '岡山県', '広島県', '山口県', '徳島県', '香川県', '愛媛県', '高知県',
  '福岡県', '佐賀県', '長崎県', '熊本県', '大分県', '宮崎県', '鹿児島県', '沖縄県',
];

// prettier-ignore
const CITIES_JA = [
  '横浜', '名古屋', '札幌', '神戸', '仙台', '川崎', 'さいたま', '北九州', '那覇', '渋谷', '新宿', '品川', '池袋', '秋葉原', '銀座',
  '六本木', '丸の内', '梅田', '難波', '博多', '天神', '浜松', '金沢', '函館', '大阪市', '横浜市', '名古屋市', '京都市', '神戸市',
  'ソウル', '北京', '上海', '香港', '台北', 'バンコク', 'ジャカルタ', 'マニラ', 'ムンバイ', 'シドニー', 'ニューヨーク', 'ロサンゼルス',
  'サンフランシスコ', 'シアトル', 'シカゴ', 'ボストン', 'ワシントン', 'トロント', 'バンクーバー', 'ロンドン', 'パリ', 'ベルリン',
  'ミュンヘン', 'マドリード', 'ローマ', 'ミラノ', 'アムステルダム', 'ブリュッセル', 'チューリッヒ', 'ジュネーブ', 'ウィーン', 'モスクワ',
  'ドバイ', 'カイロ', 'シリコンバレー',
];

// prettier-ignore
const ORGANIZATIONS_EN = [
  'Google', 'Microsoft', 'Amazon', 'Netflix', 'IBM', 'Intel', 'NVIDIA', 'Oracle', 'Salesforce', 'Adobe',
  'OpenAI', 'Anthropic', 'Tesla', 'Samsung', 'Toyota', 'Honda', 'Nissan', 'Sony', 'Panasonic', 'Hitachi', 'Toshiba',
  'Fujitsu', 'NEC', 'Canon', 'Nintendo', 'SoftBank', 'Rakuten', 'Mitsubishi', 'Mitsui', 'Sumitomo', 'NTT', 'KDDI',
  'Allganize', 'United Nations', 'UNESCO', 'UNICEF', 'NASA', 'European Union', 'World Bank', 'World Health Organization',
  'University of Tokyo', 'Kyoto University', 'Harvard University', 'Stanford University', 'MIT',
];

// prettier-ignore
const ORGANIZATIONS_JA = [
  'トヨタ', 'トヨタ自動車', 'ホンダ', '本田技研工業', '日産', '日産自動車', 'ソニー', 'パナソニック', '日立', '日立製作所', '東芝',
  '富士通', '日本電気', 'キヤノン', '任天堂', 'ソフトバンク', '楽天', '三菱', '三井', '住友', 'グーグル', 'マイクロソフト',
  'アマゾン', 'アップル', 'エヌビディア', 'オラクル', 'セールスフォース', 'オープンAI', 'サムスン', 'テスラ',
  '国連', '国際連合', 'ユネスコ', 'ユニセフ', '欧州連合', '世界銀行', '世界保健機関', '日本銀行', '東京大学', '京都大学', '大阪大学',
  '早稲田大学', '慶應義塾大学', '総務省', '経済産業省', '財務省', '外務省', '文部科学省', '厚生労働省', 'デジタル庁', '金融庁',
];

/** Prefectures without their suffix: 東京都 → 東京, 神奈川県 → 神奈川 (北海道 keeps its name). */
function prefectureStems(): string[] {
  return PREFECTURES.filter((p) => p !== '北海道').map((p) => p.slice(0, -1));
}

export function builtinEntries(): Array<[string, string]> {
  const tagged = (tag: string, phrases: string[]): Array<[string, string]> => phrases.map((p) => [p, tag]);
  return [
    ...tagged('LOCATION', [...COUNTRIES_EN, ...CITIES_EN, ...COUNTRIES_JA, ...PREFECTURES, ...prefectureStems(), ...CITIES_JA]),
    ...tagged('ORGANIZATION', [...ORGANIZATIONS_EN, ...ORGANIZATIONS_JA]),
  ];
}
